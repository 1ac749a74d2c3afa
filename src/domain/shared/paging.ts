/**
 * The `limit` of list entries and list calendar events: 1..50,
 * default 20. The request schemas publish these numbers and the listings apply the default,
 * so both read them from here.
 */
export const PAGE_LIMIT = { min: 1, max: 50, default: 20 } as const;
