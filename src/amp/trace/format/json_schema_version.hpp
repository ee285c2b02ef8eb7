// SPDX-License-Identifier: BSD-3-Clause
// The schema_version every JSON file of AMP carries (a proxy's results, amp-micro's, --list-combinations,
// --plan-only, a synthesis, amp-trace's stats, check and SimGrid export): the version of its layout in
// docs/schema/*.schema.json, which tools/amp_tools/schemas.py checks. Raised when a layout changes.
#pragma once

namespace amp {
constexpr int kJsonSchemaVersion = 1;
}  // namespace amp
