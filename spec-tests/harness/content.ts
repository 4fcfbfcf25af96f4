// Reading the text of a content block or of resource contents in an assertion. The API's
// content types have no index signature (the schema's have none), so `content[0].text`
// does not type-check until the block is narrowed to a kind that has text.
import type { ContentBlock, ResourceContents } from "../../src/api/types.js";

/** The `text` of a text block or text resource contents; undefined for any other kind, or none. */
export function blockText(item: ContentBlock | ResourceContents | undefined): string | undefined {
  return item !== undefined && "text" in item ? item.text : undefined;
}
