#ifndef RXLIVE_FUZZ_DRIVER_H
#define RXLIVE_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver (LLVM 12 and later), linked by -sanitize=fuzzer. SwiftPM links every
// executable with `main` renamed to the module's own entry point, so libFuzzer's `main` is
// never used: each target's main.swift calls this instead.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

// The fuzz target, defined by each executable with @_cdecl("LLVMFuzzerTestOneInput").
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
