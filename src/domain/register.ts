/**
 * Loads every area's registrations (seeds of built-in records). Each area adds one import.
 */
export {};
