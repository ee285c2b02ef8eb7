// The main() wrapper every proxy uses: sets up the Environment, runs the proxy body, and turns
// every error into one line and a non-zero exit on every rank (never a hang).
#pragma once

#include "environment.hpp"

#include <functional>

namespace amp {

// Exit codes: 0 success, 1 verification failed, 2 bad input, 3 other error (job aborted).
int run_proxy(const char* name, int argc, char** argv, const std::function<void(const Environment&, int, char**)>& body);

}  // namespace amp
