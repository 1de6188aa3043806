/** The browser tests' recording workbook as one script (recording-bundle.ts builds it). */
const path = require("path");

module.exports = {
  mode: "development",
  devtool: false,
  entry: path.join(__dirname, "recording-entry.ts"),
  output: { filename: "recording-workbook.js" },
  resolve: { extensions: [".ts", ".js"] },
  module: {
    rules: [
      {
        test: /\.ts$/,
        exclude: /node_modules/,
        loader: "ts-loader",
        options: {
          configFile: path.join(__dirname, "../../../tsconfig.test.json"),
          transpileOnly: true,
        },
      },
    ],
  },
};
