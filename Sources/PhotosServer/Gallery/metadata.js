// The metadata list of the detail view (date, place, camera, dimensions, file...).

import { formatDuration } from "./grid.js";
import { formatBytes } from "./upload.js";

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "short" });
const shortDateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const coordinate = new Intl.NumberFormat(undefined, { maximumFractionDigits: 5 });

/**
 * Formats an ISO date, or "" when missing or invalid.
 * @param {string|null|undefined} iso
 * @param {Intl.DateTimeFormat} format
 */
function formatDate(iso, format) {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : format.format(date);
}

/**
 * The place of an asset: its name, else its coordinates.
 * @param {object} asset
 * @param {object|null} details
 */
function placeText(asset, details) {
  if (details && details.place) return details.place;
  const location = asset.location;
  if (!location) return "";
  return `${coordinate.format(location.latitude)}, ${coordinate.format(location.longitude)}`;
}

/**
 * "Make Model" without repeating the make when the model already starts with it.
 * @param {{make?: string, model?: string}|null|undefined} camera
 */
function cameraText(camera) {
  if (!camera) return "";
  const make = camera.make || "";
  const model = camera.model || "";
  if (make && model.toLowerCase().startsWith(make.toLowerCase())) return model;
  return [make, model].filter(Boolean).join(" ");
}

/**
 * The lens name ("lens" in the API contract; "lensModel" accepted too).
 * @param {{lens?: string, lensModel?: string}|null|undefined} camera
 */
function lensText(camera) {
  return (camera && (camera.lens || camera.lensModel)) || "";
}

/**
 * The rows (label, value) of an asset; empty values are left out.
 * @param {object} asset The fetch's asset (always there).
 * @param {object|null} details GET /api/assets/{id} once loaded.
 * @returns {[string, string][]}
 */
export function metadataRows(asset, details) {
  const rows = [
    ["Date", formatDate(asset.creationDate, dateTimeFormat)],
    ["Place", placeText(asset, details)],
    ["Camera", cameraText(details && details.camera)],
    ["Lens", lensText(details && details.camera)],
    ["Dimensions", asset.pixelWidth && asset.pixelHeight ? `${asset.pixelWidth} × ${asset.pixelHeight}` : ""],
    ["Duration", asset.mediaType === "video" ? formatDuration(asset.duration) : ""],
    ["File", (details && details.originalFilename) || ""],
    ["Size", details && typeof details.fileSize === "number" ? formatBytes(details.fileSize) : ""],
    ["Type", (details && details.uniformTypeIdentifier) || ""],
    ["Albums", details && details.albums ? details.albums.map((album) => album.title || "Untitled").join(", ") : ""],
    ["Edited", asset.hasAdjustments ? "Yes" : ""],
    ["Hidden", asset.isHidden ? "Yes" : ""],
    ["Added", formatDate(details && details.addedDate, shortDateTime)],
    ["Modified", formatDate(asset.modificationDate, shortDateTime)],
  ];
  return rows.filter(([, value]) => value);
}

/**
 * Fills the detail view's title and metadata list.
 * @param {HTMLDListElement} list
 * @param {HTMLElement} title
 * @param {object} asset
 * @param {object|null} details
 */
export function fillMetadata(list, title, asset, details) {
  title.textContent = (details && details.originalFilename) || formatDate(asset.creationDate, dateTimeFormat) || "Photo";
  const nodes = [];
  for (const [label, value] of metadataRows(asset, details)) {
    const dt = document.createElement("dt");
    dt.textContent = label;
    const dd = document.createElement("dd");
    dd.textContent = value;
    nodes.push(dt, dd);
  }
  list.replaceChildren(...nodes);
}
