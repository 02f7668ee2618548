// Marks the words a search matched on the photo in the detail view: the words Tesseract read
// (the asset details' `text`, boxes in fractions of the shown image), drawn over the image
// where it is letterboxed in its stage.

/**
 * A text's words as the server's search reads them: folded (case, diacritics) and split at
 * every character that is not a letter or a digit.
 * @param {string} text
 * @returns {string[]}
 */
export function searchWords(text) {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/**
 * Draws the boxes of the read words that a search's words match (a whole word, or the start
 * of one for the search's last word, as the server matches while typing) into `layer`, which
 * is sized to the image's shown area. Returns how many were marked.
 * @param {HTMLElement} layer
 * @param {HTMLImageElement} image
 * @param {{text: string, x: number, y: number, width: number, height: number}[]|undefined} words
 * @param {string|null|undefined} search
 */
export function markWords(layer, image, words, search) {
  layer.replaceChildren();
  const wanted = search ? searchWords(search) : [];
  if (!words || wanted.length === 0 || image.hidden || !image.naturalWidth) return 0;
  const last = wanted[wanted.length - 1];
  const matches = (word) => searchWords(word.text).some((part) => wanted.includes(part) || part.startsWith(last));
  // The image's content box inside its element (object-fit: contain).
  const frame = image.getBoundingClientRect();
  const stage = layer.parentElement.getBoundingClientRect();
  const scale = Math.min(frame.width / image.naturalWidth, frame.height / image.naturalHeight);
  const width = image.naturalWidth * scale, height = image.naturalHeight * scale;
  layer.style.left = `${frame.left - stage.left + (frame.width - width) / 2}px`;
  layer.style.top = `${frame.top - stage.top + (frame.height - height) / 2}px`;
  layer.style.width = `${width}px`;
  layer.style.height = `${height}px`;
  let marked = 0;
  for (const word of words) {
    if (!matches(word)) continue;
    const mark = document.createElement("span");
    mark.className = "word-mark";
    mark.title = word.text;
    mark.style.left = `${word.x * 100}%`;
    mark.style.top = `${word.y * 100}%`;
    mark.style.width = `${word.width * 100}%`;
    mark.style.height = `${word.height * 100}%`;
    layer.append(mark);
    marked += 1;
  }
  return marked;
}
