// Renders help.html (the @helpurl target of every CRYPTO function) from the generated functions.json, so the
// in-Excel help can never disagree with the functions' own documentation. Plain JavaScript: webpack.config.js
// runs it at build time.

const escapeHtml = (text) =>
  String(text).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]
  );

function signature(fn) {
  const params = fn.parameters.map((p) => (p.optional ? `[${p.name}]` : p.name));
  return `=CRYPTO.${fn.name}(${params.join(", ")})`;
}

function renderFunction(fn) {
  const rows = fn.parameters
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name)}</code>${p.optional ? " (optional)" : ""}${
          p.dimensionality === "matrix" ? " — value, comma list or range" : ""
        }</td><td>${escapeHtml(p.description ?? "")}</td></tr>`
    )
    .join("\n");
  return `<section id="${escapeHtml(fn.id.toLowerCase())}">
<h2>${escapeHtml(fn.name)}</h2>
<p><code>${escapeHtml(signature(fn))}</code></p>
<p>${escapeHtml(fn.description ?? "")}</p>
${rows ? `<table><thead><tr><th>Argument</th><th>Meaning</th></tr></thead><tbody>${rows}</tbody></table>` : ""}
</section>`;
}

module.exports = function renderHelp(functionsJson, version) {
  const { functions } = JSON.parse(functionsJson);
  const index = functions
    .map(
      (fn) => `<li><a href="#${escapeHtml(fn.id.toLowerCase())}">${escapeHtml(fn.name)}</a></li>`
    )
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Cryptometrics for Excel — function reference</title>
<style>:root{color-scheme:light dark}
body{font-family:"Segoe UI",system-ui,sans-serif;max-width:52rem;margin:1rem auto;padding:0 1rem;line-height:1.45;overflow-wrap:anywhere;color:#242424;background:#fff}
main{display:block}a{color:#115ea3}code{background:#f3f3f3;padding:0 .2em}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #d1d1d1;padding:.25rem .5rem;text-align:left;vertical-align:top}
td:first-child{min-width:6em}ul.index{display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding-left:0;list-style-position:inside}
ul.index a{display:inline-block;min-height:24px;line-height:24px}
@media (prefers-color-scheme:dark){body{color:#fff;background:#292929}a{color:#479ef5}code{background:#141414}td,th{border-color:#666}}</style>
</head><body><main>
<h1>Cryptometrics for Excel ${escapeHtml(version)}: function reference</h1>
<p>Dates take a date cell, <code>DATE()</code>, <code>TODAY()</code> or text <code>"YYYY-MM-DD"</code>.
Options are one text of <code>key=value</code> pairs separated by <code>;</code>, e.g. <code>"order=desc; period=month"</code>.
Errors: <code>#VALUE!</code> for a bad argument, option or missing key; <code>#N/A</code> for unknown ids, missing data or an unreachable service — hover the cell for the reason.</p>
<nav aria-label="Functions"><ul class="index">${index}</ul></nav>
${functions.map(renderFunction).join("\n")}
</main></body></html>
`;
};
