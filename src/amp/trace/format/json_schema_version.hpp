// SPDX-License-Identifier: BSD-3-Clause
// The schema_version of every JSON file of AMP: the version of its layout in docs/schema/*.schema.json,
// which tools/amp_tools/schemas.py checks. Raised when a layout changes.
#pragma once

namespace amp {
// amp-micro's results, --list-combinations, amp-trace's stats, check and SimGrid export.
constexpr int kJsonSchemaVersion = 1;
// A proxy's results (a run, a --synthesize, a --plan-only: docs/schema/results*.schema.json). 2: the
// configuration names the strategy under `strategy` alone (1 also wrote it under an older key).
constexpr int kResultsSchemaVersion = 2;
}  // namespace amp
