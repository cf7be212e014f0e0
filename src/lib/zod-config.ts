/**
 * Imported first by main.tsx, before any module defines a schema. The console runs under a CSP without
 * 'unsafe-eval' (src/serve/headers.ts): zod must neither compile its object parsers with `new Function` nor
 * probe whether it could (the browser reports the probe as a violation even though zod catches the throw).
 * Parsing the API's small JSON answers without the compiled fast path costs nothing measurable.
 */
import { z } from 'zod';

z.config({ jitless: true });
