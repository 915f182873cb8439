#include "rx_trampoline.h"

__thread int rx_trampoline_running = 0;
__thread const void *rx_subscribing_slot = 0;
