/**
 * Flipt's `flipt.auth.Method` (auth.proto). Unlike the other enums here its member names are the names on the wire
 * (`METHOD_TOKEN`), so TypeScript's reverse mapping (`Method[m]`) is its number → name table.
 */

export enum Method {
  METHOD_NONE = 0,
  METHOD_TOKEN = 1,
  METHOD_OIDC = 2,
  METHOD_KUBERNETES = 3,
  METHOD_GITHUB = 4,
  METHOD_JWT = 5,
  /** Deprecated in Flipt and never issued; kept so that the number keeps its meaning. */
  METHOD_CLOUD = 6,
}
