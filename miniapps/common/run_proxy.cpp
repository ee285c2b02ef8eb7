// Error policy of every proxy: InputError and VerificationError are thrown on every rank at once, so
// rank 0 prints the line and all ranks exit; anything else may be one rank's alone, so MPI_Abort.
#include "run_proxy.hpp"

#include "errors.hpp"
#include "synthesis.hpp"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <cstdio>
#include <exception>

namespace amp {

int run_proxy(const char* name, int argc, char** argv,
              const std::function<void(const Environment&, int, char**)>& body) {
  Environment env(argc, argv);
  auto fail = [&](int code, const char* what) {
    if (env.rank() == 0) std::fprintf(stderr, "%s: error: %s\n", name, what);
    return code;
  };
  try {
    if (Synthesis::requested(argc, argv)) {
      Synthesis synthesis(name, argc, argv, env);
      synthesis.run(argc, argv, body);
    } else {
      body(env, argc, argv);
    }
    return 0;
  } catch (const CLI::ParseError& e) {
    return fail(2, e.what());
  } catch (const InputError& e) {
    return fail(2, e.what());
  } catch (const VerificationError& e) {
    return fail(1, e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error on rank %d: %s\n", name, env.rank(), e.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
    return 3;
  }
}

}  // namespace amp
