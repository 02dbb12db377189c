// The fields of privacy-pixels.html, written into a document or shadow
// root with their ids prefixed by p, and filled with secrets by fill.
const pixelCSS = `
.row { display: flex; gap: 6px; align-items: flex-start; margin: 4px 0; }
input, textarea, .ce { box-sizing: border-box; width: 120px; height: 28px; margin: 0; font: 14px monospace; }
textarea { height: 44px; resize: none; }
.ce { border: 1px solid #888; overflow: hidden; white-space: nowrap; }
`;

function writeFields(root, p) {
  root.innerHTML = `<style>${pixelCSS}</style><div class="row">
<textarea id="${p}ta" autocomplete="cc-number" aria-label="Card number"></textarea>
<input id="${p}otc" autocomplete="one-time-code" aria-label="Code">
<div id="${p}ce" class="ce" contenteditable="true" autocomplete="cc-number" role="textbox" aria-label="Card, editable"></div>
<input id="${p}show" type="password" autocomplete="current-password" aria-label="Password, show">
<input id="${p}pw" type="password" aria-label="Password">
<input id="${p}plain" aria-label="Name">
</div>`;
}

// fillFields puts a secret in every sensitive field and a public name in
// the plain one: the show-password field turns into text.
function fillFields(root, p, secret) {
  root.getElementById(p + 'ta').value = '4111 1111 1111 ' + secret;
  root.getElementById(p + 'otc').value = secret;
  root.getElementById(p + 'ce').textContent = '5500' + secret;
  const show = root.getElementById(p + 'show');
  show.value = 'pw-' + secret;
  show.type = 'text';
  root.getElementById(p + 'pw').value = 'hunter2-' + secret;
  root.getElementById(p + 'plain').value = 'PUBLIC NAME';
}
