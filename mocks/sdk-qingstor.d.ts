/**
 * The part of the official QingStor JS SDK (npm `qingstor-sdk` 3.1.4, untyped CommonJS) that the
 * conformance suite drives. Response bodies stay `unknown`: the tests assert on them, never trust them.
 */
declare module 'qingstor-sdk' {
  type Options = Record<string, unknown>;

  export interface SdkResponse {
    status: number;
    headers: Record<string, string | undefined>;
    data: unknown;
  }

  export interface SdkOperation {
    uri: string;
    method: string;
    headers: Record<string, string>;
  }

  export interface SdkRequest {
    operation: SdkOperation;
    signQuery(expiresTTL: number): Promise<SdkRequest>;
    send(): Promise<SdkResponse>;
  }

  export interface SdkBucket {
    put(): Promise<SdkResponse>;
    head(): Promise<SdkResponse>;
    delete(): Promise<SdkResponse>;
    getStatistics(): Promise<SdkResponse>;
    listObjects(options?: Options): Promise<SdkResponse>;
    listMultipartUploads(options?: Options): Promise<SdkResponse>;
    getACL(): Promise<SdkResponse>;
    putACL(options: Options): Promise<SdkResponse>;
    getCORS(): Promise<SdkResponse>;
    putCORS(options: Options): Promise<SdkResponse>;
    deleteCORS(): Promise<SdkResponse>;
    getPolicy(): Promise<SdkResponse>;
    putPolicy(options: Options): Promise<SdkResponse>;
    deletePolicy(): Promise<SdkResponse>;
    deleteMultipleObjects(options: Options): Promise<SdkResponse>;
    putObject(key: string, options?: Options): Promise<SdkResponse>;
    getObject(key: string, options?: Options): Promise<SdkResponse>;
    headObject(key: string, options?: Options): Promise<SdkResponse>;
    deleteObject(key: string): Promise<SdkResponse>;
    appendObject(key: string, options: Options): Promise<SdkResponse>;
    initiateMultipartUpload(key: string, options?: Options): Promise<SdkResponse>;
    uploadMultipart(key: string, options: Options): Promise<SdkResponse>;
    listMultipart(key: string, options: Options): Promise<SdkResponse>;
    completeMultipartUpload(key: string, options: Options): Promise<SdkResponse>;
    abortMultipartUpload(key: string, options: Options): Promise<SdkResponse>;
    optionsObject(key: string, options: Options): Promise<SdkResponse>;
    optionsObjectValidate(operation: unknown): void;
    getObjectRequest(key: string, options?: Options): SdkRequest;
    // Areas the emulator does not implement: driven only to check that they are refused in QingStor form.
    getCNAME(options?: Options): Promise<SdkResponse>;
    putCNAME(options: Options): Promise<SdkResponse>;
    deleteCNAME(options: Options): Promise<SdkResponse>;
    getExternalMirror(): Promise<SdkResponse>;
    putExternalMirror(options: Options): Promise<SdkResponse>;
    deleteExternalMirror(): Promise<SdkResponse>;
    getLifecycle(): Promise<SdkResponse>;
    putLifecycle(options: Options): Promise<SdkResponse>;
    deleteLifecycle(): Promise<SdkResponse>;
    getLogging(): Promise<SdkResponse>;
    putLogging(options: Options): Promise<SdkResponse>;
    deleteLogging(): Promise<SdkResponse>;
    getNotification(): Promise<SdkResponse>;
    putNotification(options: Options): Promise<SdkResponse>;
    deleteNotification(): Promise<SdkResponse>;
    getReplication(): Promise<SdkResponse>;
    putReplication(options: Options): Promise<SdkResponse>;
    deleteReplication(): Promise<SdkResponse>;
    imageProcess(key: string, options: Options): Promise<SdkResponse>;
  }

  export class Config {
    constructor(options?: Options);
    getAxiosConfig?: (operation: SdkOperation) => Options;
  }

  export class QingStor {
    constructor(config: Config);
    listBuckets(options?: Options): Promise<SdkResponse>;
    Bucket(name: string, zone: string): SdkBucket;
  }

  const sdk: { Config: typeof Config; QingStor: typeof QingStor; version: string };
  export default sdk;
}
