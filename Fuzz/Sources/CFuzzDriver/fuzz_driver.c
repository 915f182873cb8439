// Only the header matters: SwiftPM needs a source file in a C target.
#include "fuzz_driver.h"
