/**
 * What a PostObject form parser hands the handler (mocks/handlers/post-object.ts): the fields before the
 * file, and the file unread. The handler's default parser reads the whole form; the standalone server's
 * streaming one is mocks/http/form-stream.ts.
 */

/** The file part of a PostObject form, whose content is read only after the form has been checked. */
export interface PostFormFile {
  /** File name as sent (path included; `${filename}` takes its base name). */
  name: string;
  /** The part's Content-Type ('' or text/plain when it had none, as the Fetch standard parses forms). */
  type: string;
  /** The content, read as it is iterated (the caller enforces the size cap). */
  chunks(): AsyncIterable<Uint8Array>;
}

export interface PostForm {
  /** String fields in form order, up to (not including) `file`. */
  fields: Array<[string, string]>;
  file: PostFormFile;
}

/**
 * Parses a PostObject body up to its `file` part. The default reads the whole form with
 * `request.formData()` (readWholeForm in mocks/handlers/post-object.ts: the browser's service worker has
 * nothing else); the standalone server passes a streaming reader (form-stream.ts) that stops at the file
 * part, so that a form refused by its policy, signature, bucket or ACL is answered before its file is read.
 */
export type PostFormReader = (request: Request) => Promise<PostForm>;
