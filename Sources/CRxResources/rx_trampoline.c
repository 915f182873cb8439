#include "rx_trampoline.h"

__thread int rx_trampoline_running = 0;
