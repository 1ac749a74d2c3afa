/**
 * Loads every area's registrations (seeds of built-in records). Each area adds one import.
 */
import './collections/builtins.js';
import './calendar/register.js';
import './plans/register.js';
import './notifications/register.js';
export {};
