// Spec: draft basic/versioning — "Terminology": legacy versions handshake, modern ones carry _meta.
import { test } from "node:test";
import assert from "node:assert/strict";
import { allowsBatches, isLegacyVersion, isModernVersion, isProtocolVersion, isSchemaVersion, LEGACY_VERSIONS, MODERN_VERSIONS, PROTOCOL_VERSIONS, schemaVersionOf, SCHEMA_VERSIONS } from "../../src/model/versions.js";

test("versioning: 2025-11-25 and earlier are legacy, 2026-07-28 is modern", () => {
  assert.equal(isLegacyVersion("2025-11-25"), true);
  assert.equal(isLegacyVersion("2026-07-28"), false);
  assert.equal(isModernVersion("2026-07-28"), true);
  assert.equal(isModernVersion("1900-01-01"), false);
  assert.equal(schemaVersionOf("2024-11-05"), "2025-03-26");
  assert.equal(allowsBatches("2025-03-26"), true);
  assert.equal(allowsBatches("2025-06-18"), false);
});

test("versioning: the era tests agree with the version lists (they compare, the lists are the source of truth)", () => {
  for (const v of PROTOCOL_VERSIONS) {
    assert.equal(isProtocolVersion(v), true, v);
    assert.equal(isLegacyVersion(v), (LEGACY_VERSIONS as readonly string[]).includes(v), v);
    assert.equal(isModernVersion(v), (MODERN_VERSIONS as readonly string[]).includes(v), v);
    assert.equal(isSchemaVersion(v), (SCHEMA_VERSIONS as readonly string[]).includes(v), v);
  }
  assert.deepEqual([...LEGACY_VERSIONS, ...MODERN_VERSIONS].sort(), [...PROTOCOL_VERSIONS].sort());
  for (const v of ["", "2025-11-2", "2099-01-01", 20251125, undefined, null, { toString: () => "2025-11-25" }]) {
    assert.equal(isProtocolVersion(v) || isLegacyVersion(v) || isModernVersion(v) || isSchemaVersion(v), false, String(v));
  }
});
