// Types for static-server.mjs, for the TypeScript tests.
export interface StaticServer {
  /** Where the files are served, ending in the prefix (e.g. http://127.0.0.1:41234/course/txcast/). */
  url: string;
  close(): Promise<void>;
}
export function serveStatic(options: { dir: string; host?: string; port?: number; prefix?: string; tls?: { cert: string | Buffer; key: string | Buffer } | null }): Promise<StaticServer>;
