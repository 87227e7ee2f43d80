import { badInput } from '../../errors.ts';
import type { Bytes } from '../cfb/bytes.ts';
import { RT, recordAt } from './records.ts';

const ENCRYPTED_TOKEN = 0xf3d1c4df;

export interface Persist {
  /** Stream offset of each persist object, newest edit winning. */
  offsets: Map<number, number>;
  docPersistId: number;
  /**
   * Persist id of the CryptSession10Container when the file is encrypted (the UserEditAtom's
   * encryptSessionPersistIdRef); -1 when the Current User stream says "encrypted" but no edit names one.
   */
  cryptSessionId?: number;
}

/**
 * Follows Current User → UserEditAtom chain → PersistDirectoryAtoms ([MS-PPT] 2.1.2) to map persist ids
 * to offsets. Returns undefined when the chain is unusable, so the caller can fall back to a scan.
 * These records are never encrypted, so an encrypted file's directory reads the same.
 */
export function readPersist(doc: Bytes, currentUser: Bytes | undefined): Persist | undefined {
  if (!currentUser || currentUser.length < 24) return undefined;
  const cu = recordAt(currentUser, 0, currentUser.length);
  if (!cu || cu.type !== RT.currentUser) return undefined;
  let cryptSessionId = currentUser.u32(cu.body + 4) === ENCRYPTED_TOKEN ? -1 : undefined;
  let editOffset = currentUser.u32(cu.body + 8);
  const offsets = new Map<number, number>();
  let docPersistId = -1;
  const visited = new Set<number>();
  while (editOffset > 0 || visited.size === 0) {
    if (visited.has(editOffset) || visited.size > 4096) break;
    visited.add(editOffset);
    const ue = recordAt(doc, editOffset, doc.length);
    if (!ue || ue.type !== RT.userEdit || ue.end - ue.body < 28)
      return offsets.size ? withSession({ offsets, docPersistId }, cryptSessionId) : undefined;
    // An encryptSessionPersistIdRef field is present only in encrypted documents.
    if (ue.end - ue.body >= 32 && (cryptSessionId ?? -1) < 0) cryptSessionId = doc.u32(ue.body + 28);
    if (docPersistId < 0) docPersistId = doc.u32(ue.body + 16);
    const dir = recordAt(doc, doc.u32(ue.body + 12), doc.length);
    if (dir && dir.type === RT.persistDirectory) {
      let p = dir.body;
      while (p + 4 <= dir.end) {
        const head = doc.u32(p);
        const first = head & 0xfffff;
        const count = head >>> 20;
        p += 4;
        for (let i = 0; i < count && p + 4 <= dir.end; i++, p += 4) {
          if (!offsets.has(first + i)) offsets.set(first + i, doc.u32(p));
        }
      }
    }
    editOffset = doc.u32(ue.body + 8);
    if (editOffset === 0) break;
  }
  return offsets.size && docPersistId >= 0 ? withSession({ offsets, docPersistId }, cryptSessionId) : undefined;
}

const withSession = (p: Persist, cryptSessionId: number | undefined): Persist =>
  cryptSessionId === undefined ? p : { ...p, cryptSessionId };

/** An encrypted presentation whose edit chain is too damaged to find its encryption record. */
export const encryptedDamaged = () =>
  badInput('The PowerPoint presentation is encrypted and too damaged to decrypt (its edit chain is unreadable).');
