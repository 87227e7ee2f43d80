/** The seam between the scrape route and the network: Node's fetcher, or one injected by tests/runtimes. */
export interface FetchRequest {
  url: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  skipTlsVerification: boolean;
  maxBytes: number;
  maxRedirects: number;
  allowPrivateNetworks: boolean | readonly string[];
}

export interface Fetched {
  /** Final URL after redirects. */
  url: string;
  status: number;
  contentType: string | undefined;
  body: Uint8Array;
}

export type Fetcher = (req: FetchRequest) => Promise<Fetched>;
