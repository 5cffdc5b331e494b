/**
 * The meta tag name with which a classroom server marks the page it serves (src/server/app.ts), so
 * that the page asks /api/info only when served by one (src/adapters/browser/classroom-detect.ts).
 */
export const CLASSROOM_META = 'educlaw-classroom-server';
