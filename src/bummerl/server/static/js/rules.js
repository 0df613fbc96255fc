// The rules page: the Markdown the server ships, rendered by the small renderer in markdown.js.

import { renderMarkdown } from "./markdown.js";

const response = await fetch("/api/rules");
const text = await response.text();
document.getElementById("rules").replaceChildren(...renderMarkdown(text));
