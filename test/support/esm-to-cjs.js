/* global require, module */
/**
 * Jest transform for ESM-only packages (jose): their modules rewritten to CommonJS and nothing else. ts-jest
 * would also lower class fields, which breaks jose's error classes (`super(), this.name = …` in one
 * expression): here the target is the Node version's own, so classes stay as written.
 */
const ts = require("typescript");

module.exports = {
  process(source, path) {
    const { outputText } = ts.transpileModule(source, {
      fileName: path,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        allowJs: true,
        esModuleInterop: true,
      },
    });
    return { code: outputText };
  },
};
