/** Types of manifests.js (plain JavaScript: webpack.config.js runs it at build time). */
export declare const UNIFIED_SCHEMA_VERSION: string;

export interface FunctionsMetadata {
  functions?: unknown[];
  allowCustomDataForDataTypeAny?: boolean;
}

export declare const SOURCE: {
  readonly id: string;
  readonly namespace: string;
  readonly page: string;
  readonly functionsScript: string;
  readonly functionsMetadata: string;
  readonly ribbon: {
    readonly taskpaneId: string;
    readonly refresh: { readonly functionName: string };
  };
};

export declare function renderXml(origin: string, version: string): string;
export declare function renderUnified(
  origin: string,
  version: string,
  functionsMetadata: FunctionsMetadata
): Record<string, unknown>;
export declare function unifiedText(
  origin: string,
  version: string,
  functionsMetadata: FunctionsMetadata
): string;
