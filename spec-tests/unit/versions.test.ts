// Spec: draft basic/versioning — "Terminology": legacy versions handshake, modern ones carry _meta.
import { test } from "node:test";
import assert from "node:assert/strict";
import { allowsBatches, isLegacyVersion, isModernVersion, schemaVersionOf } from "../../src/model/versions.js";

test("versioning: 2025-11-25 and earlier are legacy, 2026-07-28 is modern", () => {
  assert.equal(isLegacyVersion("2025-11-25"), true);
  assert.equal(isLegacyVersion("2026-07-28"), false);
  assert.equal(isModernVersion("2026-07-28"), true);
  assert.equal(isModernVersion("1900-01-01"), false);
  assert.equal(schemaVersionOf("2024-11-05"), "2025-03-26");
  assert.equal(allowsBatches("2025-03-26"), true);
  assert.equal(allowsBatches("2025-06-18"), false);
});
