// A small Markdown renderer for the rules page: headings, paragraphs, lists, tables, code, emphasis and
// links. It builds DOM nodes (never innerHTML), so the text cannot inject markup.

function inline(text) {
  const out = [];
  const pattern = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*]+\*|\[[^\]]+\]\([^)]+\))/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) out.push(document.createTextNode(text.slice(last, match.index)));
    const token = match[0];
    let node;
    if (token.startsWith("`")) {
      node = document.createElement("code");
      node.textContent = token.slice(1, -1);
    } else if (token.startsWith("**")) {
      node = document.createElement("strong");
      node.append(...inline(token.slice(2, -2)));
    } else if (token.startsWith("*")) {
      node = document.createElement("em");
      node.append(...inline(token.slice(1, -1)));
    } else {
      const [, label, href] = token.match(/^\[([^\]]+)\]\(([^)]+)\)$/);
      node = document.createElement("a");
      node.textContent = label;
      if (/^(https?:|#|\/)/.test(href)) node.href = href;
    }
    out.push(node);
    last = match.index + token.length;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

function cells(line) {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

export function renderMarkdown(text) {
  const lines = text.replace(/\r/g, "").split("\n");
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    const heading = line.match(/^(#{1,6})\s+(.*)$/);
    if (heading) {
      const node = document.createElement(`h${heading[1].length}`);
      node.append(...inline(heading[2]));
      node.id = node.textContent.toLowerCase().trim().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "");
      out.push(node);
      i++;
    } else if (line.startsWith("```")) {
      const pre = document.createElement("pre");
      const code = document.createElement("code");
      const body = [];
      i++;
      while (i < lines.length && !lines[i].startsWith("```")) body.push(lines[i++]);
      i++;
      code.textContent = body.join("\n");
      pre.appendChild(code);
      out.push(pre);
    } else if (line.trim().startsWith("|")) {
      const table = document.createElement("table");
      const rows = [];
      while (i < lines.length && lines[i].trim().startsWith("|")) rows.push(lines[i++]);
      rows.filter((r) => !/^\s*\|?\s*:?-+/.test(r)).forEach((r, n) => {
        const tr = document.createElement("tr");
        for (const c of cells(r)) {
          const cell = document.createElement(n === 0 ? "th" : "td");
          cell.append(...inline(c));
          tr.appendChild(cell);
        }
        table.appendChild(tr);
      });
      out.push(table);
    } else if (/^\s*([-*]|\d+\.)\s+/.test(line)) {
      const ordered = /^\s*\d+\.\s+/.test(line);
      const list = document.createElement(ordered ? "ol" : "ul");
      while (i < lines.length && /^\s*([-*]|\d+\.)\s+/.test(lines[i])) {
        let item = lines[i++].replace(/^\s*([-*]|\d+\.)\s+/, "");
        while (i < lines.length && /^\s{2,}\S/.test(lines[i]) && !/^\s*([-*]|\d+\.)\s+/.test(lines[i])) item += " " + lines[i++].trim();
        const li = document.createElement("li");
        li.append(...inline(item));
        list.appendChild(li);
      }
      out.push(list);
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() && !/^(#{1,6}\s|```|\s*\||\s*([-*]|\d+\.)\s+)/.test(lines[i])) para.push(lines[i++].trim());
      const p = document.createElement("p");
      p.append(...inline(para.join(" ")));
      out.push(p);
    }
  }
  return out;
}
