/**
 * A message as the renderer needs it, whatever it came from (MIME or an Outlook item): the
 * header fields shown, one body (HTML preferred, else plain text, else RTF), the pictures the
 * HTML body references by `cid:`, and the attachments in order.
 */
export interface MailMessage {
  subject?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  cc?: string | undefined;
  date?: string | undefined;
  html?: string | undefined;
  text?: string | undefined;
  /** An RTF body (Outlook items that carry nothing else), read by the RTF adapter. */
  rtf?: Uint8Array | undefined;
  /** Pictures of the HTML body by content id. */
  inline: Map<string, { bytes: Uint8Array; mime: string }>;
  attachments: MailAttachment[];
}

export type MailAttachment =
  | { name: string; contentType?: string | undefined; bytes: Uint8Array }
  | { name: string; message: MailMessage };

export const emptyMessage = (): MailMessage => ({ inline: new Map(), attachments: [] });
