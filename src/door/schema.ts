/**
 * The request structs' vocabulary (`S.*`, named schemas) for the doors. It lives in the domain
 * (src/domain/shared/schema.ts) because a record's field table holds each field's struct next to
 * its rules (src/domain/shared/record.ts); the doors import it from here.
 */
export * from '../domain/shared/schema.js';
