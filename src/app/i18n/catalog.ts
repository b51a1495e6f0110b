// Message catalogs: each feature (and the shared shell) owns a strings.ts of descriptors with stable ids
// and English ICU defaults, and a strings.es.ts with the Spanish of every id. Both files hold data
// only (type imports at most): the production build compiles their ICU strings ahead of time
// (vite.config.ts), so no ICU parser ships to the browser.
export interface Message {
  readonly id: string;
  readonly message: string;
}

export type Messages = Readonly<Record<string, Message>>;

/** The Spanish of every message of a feature's catalog, by id: a missing id fails the typecheck. */
export type Translations<M extends Messages> = { readonly [K in M[keyof M]['id']]: string };
