import {
  declareHost,
  installCustomFunctions,
  installHost,
  type HostInfo,
} from "../../src/sheet/host";

interface Shimmed {
  CustomFunctions?: {
    Error: new (code: string, message?: string) => { code: string; message?: string };
    ErrorCode: Record<string, string>;
  };
  __CM_HOST__?: { name: string; formattedNumbers: boolean };
}

describe("host shim outside Excel", () => {
  it("installs CustomFunctions.Error and ErrorCode with Excel's codes where none exists", () => {
    const target: Shimmed = {};
    expect(installCustomFunctions(target)).toBe(true);
    const shim = target.CustomFunctions!;
    const error = new shim.Error(shim.ErrorCode.notAvailable, "unknown project 'foo'");
    expect(error.code).toBe("#N/A");
    expect(error.message).toBe("unknown project 'foo'");
    expect(shim.ErrorCode).toEqual({
      invalidValue: "#VALUE!",
      notAvailable: "#N/A",
      divisionByZero: "#DIV/0!",
      invalidNumber: "#NUM!",
      nullReference: "#NULL!",
      invalidName: "#NAME?",
      invalidReference: "#REF!",
    });
  });

  it("leaves an existing CustomFunctions alone (inside Excel, or a test's own)", () => {
    const existing = { marker: true };
    const target: { CustomFunctions?: unknown } = { CustomFunctions: existing };
    expect(installCustomFunctions(target)).toBe(false);
    expect(target.CustomFunctions).toBe(existing);
  });

  it("declares the host and its support of formatted numbers and entities through __CM_HOST__", () => {
    const target: Shimmed = {};
    installHost({ name: "test", formattedNumbers: true, entities: false }, target);
    expect(target.__CM_HOST__).toEqual({ name: "test", formattedNumbers: true, entities: false });
    expect(target.CustomFunctions).toBeDefined();
  });

  it("hands out a copy of the host flag, so no caller can change the constant", () => {
    const target: Shimmed = {};
    const info: Readonly<HostInfo> = Object.freeze({
      name: "test",
      formattedNumbers: true,
      entities: true,
    });
    declareHost(info, target);
    target.__CM_HOST__!.formattedNumbers = false;
    expect(info.formattedNumbers).toBe(true);
  });
});
