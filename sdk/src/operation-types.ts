// Type machinery that turns one operation of the generated `operations` type into one client
// method. Nothing here names an operation or a schema: every shape comes from the types
// openapi-typescript generates from openapi.yaml.
import type { Client } from 'openapi-fetch';
import type { Paginate } from './paginate.js';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** Where an operation lives: its HTTP method and path template, as written in openapi.yaml. */
export interface OperationRoute {
  readonly method: HttpMethod;
  readonly path: string;
  /** Set on operations whose only success is a redirect (`login`): the redirect is not followed. */
  readonly redirect?: 'manual';
}

/** operationId → route. */
export interface OperationTable {
  readonly [operationId: string]: OperationRoute;
}

/** Per-call options, the optional second argument of every method. */
export interface CallOptions {
  /** Aborts the request; the method then rejects with the fetch implementation's AbortError. */
  signal?: AbortSignal | undefined;
  /** Extra headers for this call only; they override the client's headers of the same name. */
  headers?: HeadersInit | undefined;
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type IsNever<T> = [T] extends [never] ? true : false;
type Defined<T> = Exclude<T, undefined>;
/** The empty object type: no properties to add to an intersection, and what any object extends. */
type Nothing = Record<never, never>;

/** The body of one media-type map: JSON when the operation offers it, else the first one. */
type MediaBody<Content> = Content extends { 'application/json': infer Json } ? Json : Content[keyof Content];

/** Path parameters by name, without `orgSlug`: the client binds it. */
type PathArgs<Op> = Op extends { parameters: { path: infer Path } } ? Omit<Path, 'orgSlug'> : Nothing;

/**
 * Optional query values also take `undefined` (under `exactOptionalPropertyTypes` too): the
 * client leaves empty values out of the URL, so `{ folderId: selected }` needs no spread.
 */
type QueryValues<Query> = { [K in keyof Query]: Nothing extends Pick<Query, K> ? Query[K] | undefined : Query[K] };

type QueryArgs<Op> = Op extends { parameters: infer Params }
  ? Params extends { query: infer Query }
    ? { query: QueryValues<Query> }
    : Params extends { query?: infer Query }
      ? IsNever<Defined<Query>> extends true
        ? Nothing
        : { query?: QueryValues<Defined<Query>> }
      : Nothing
  : Nothing;

type BodyArgs<Op> = Op extends { requestBody: { content: infer Content } }
  ? { body: MediaBody<Content> }
  : Op extends { requestBody?: infer Body }
    ? IsNever<Defined<Body>> extends true
      ? Nothing
      : Defined<Body> extends { content: infer Content }
        ? { body?: MediaBody<Content> }
        : Nothing
    : Nothing;

/**
 * The one argument of an operation's method: its path parameters by name, plus `query`
 * and/or `body` when the operation has them.
 */
export type OperationArgs<Op> = NoExtraKeys<Simplify<PathArgs<Op> & QueryArgs<Op> & BodyArgs<Op>>>;

/** `{}` would accept any object (no excess-property check against it); nothing may be passed. */
type NoExtraKeys<Args> = [keyof Args] extends [never] ? Record<string, never> : Args;

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 205 | 206 | 207 | 208 | 226 | '2XX';

type ResponseBody<Response> = Response extends { content: infer Content }
  ? IsNever<Content> extends true
    ? undefined
    : MediaBody<Content>
  : undefined;

/**
 * What a method resolves to: the body of the operation's 2xx responses, `undefined` for a
 * response without content (204) and for an operation without a 2xx response (`login`).
 */
export type OperationResult<Op> = Op extends { responses: infer Responses }
  ? IsNever<keyof Responses & SuccessStatus> extends true
    ? undefined
    : ResponseBody<Responses[keyof Responses & SuccessStatus]>
  : unknown;

/** The method of one operation. The argument is optional when nothing in it is required. */
export type OperationMethod<Op> =
  Nothing extends OperationArgs<Op>
    ? (args?: OperationArgs<Op>, options?: CallOptions) => Promise<OperationResult<Op>>
    : (args: OperationArgs<Op>, options?: CallOptions) => Promise<OperationResult<Op>>;

/** What a client has besides its methods. */
export interface ClientMembers<Paths extends {}> {
  /**
   * The underlying openapi-fetch client, typed by the contract's `paths`. It shares the
   * client's base URL, fetch (with its 429 retry), headers and credentials but does not bind
   * `orgSlug`, and it answers `{ data, error, response }` instead of throwing.
   */
  readonly raw: Client<Paths>;
  /**
   * The items of every page of a paged list method (one whose result has `nextCursor`):
   * `for await (const member of hub.paginate(hub.listMembers)) …`. Takes the method's own
   * arguments and call options after it; `query.limit` sets the page size (default 100).
   */
  readonly paginate: Paginate;
}

/** A client with one method per operation of `Operations`, plus `raw` and `paginate`. */
export type OperationClient<Operations, Paths extends {}> = {
  readonly [Id in keyof Operations]: OperationMethod<Operations[Id]>;
} & ClientMembers<Paths>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The routes (path × method) of `Paths` whose operation is `Op`. */
type RoutesOf<Op, Paths> = {
  [Path in keyof Paths]: {
    [Method in keyof Paths[Path] & HttpMethod]: Same<Paths[Path][Method], Op> extends true
      ? { readonly method: Method; readonly path: Path }
      : never;
  }[keyof Paths[Path] & HttpMethod];
}[keyof Paths];

/** An operation table that names, for every operation and only those, its own route. */
export type OperationTableFor<Operations, Paths> = {
  readonly [Id in keyof Operations]: RoutesOf<Operations[Id], Paths> & { readonly redirect?: 'manual' };
};

/** `true` when A and B are the same set of keys, else a type naming the keys in only one of them. */
export type SameKeys<A extends PropertyKey, B extends PropertyKey> = [Exclude<A, B> | Exclude<B, A>] extends [never]
  ? true
  : { keysInOnlyOneSide: Exclude<A, B> | Exclude<B, A> };

/** Compiles only when T is `true`: the error names what T is instead. */
export type Expect<T extends true> = T;
