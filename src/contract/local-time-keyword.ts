/**
 * The `x-local-time` keyword: a date-time without an offset is a wall-clock time of the foundation's time zone
 * (FOUNDATION_TIME_ZONE), and must be one its clocks show. The zone is a setting, so the validator of each app
 * runs it (http/schemas/local-time.ts); the `date-time-or-local` format checks the text itself.
 */
export const LOCAL_TIME_KEYWORD = 'x-local-time';
