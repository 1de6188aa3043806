import { ERROR_CODES, HostFunctionError } from "../../src/sheet/host";
import { BROWSER_HOST, completeBrowserHost } from "../../src/sheet/browser-host";

test("office.js outside Office defines CustomFunctions without Error: Error and ErrorCode are added, associate kept", () => {
  const associate = (): void => undefined;
  const page: Record<string, unknown> = { CustomFunctions: { associate } };
  completeBrowserHost(page);
  const cf = page.CustomFunctions as { associate: unknown; Error: unknown; ErrorCode: unknown };
  expect(cf.associate).toBe(associate);
  expect(cf.Error).toBe(HostFunctionError);
  expect(cf.ErrorCode).toBe(ERROR_CODES);
  expect(page.__CM_HOST__).toEqual(BROWSER_HOST);
});

test("without office.js the whole shim is installed; a complete host is left as it is", () => {
  const bare: Record<string, unknown> = {};
  completeBrowserHost(bare);
  expect((bare.CustomFunctions as { Error: unknown }).Error).toBe(HostFunctionError);

  class ExcelError extends Error {}
  const excel = {
    associate: () => undefined,
    Error: ExcelError,
    ErrorCode: { notAvailable: "#N/A" },
  };
  const page: Record<string, unknown> = { CustomFunctions: excel };
  completeBrowserHost(page);
  expect(page.CustomFunctions).toBe(excel);
  expect(excel.Error).toBe(ExcelError);
});
