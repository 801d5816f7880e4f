// SPDX-License-Identifier: Apache-2.0
#ifndef TABSERVER_CHIREDIS_SHIM_H
#define TABSERVER_CHIREDIS_SHIM_H

#include <hiredis/hiredis.h>

// redisCommand is variadic and cannot be called from Swift; the wrapper uses
// redisCommandArgv, which takes every argument as (pointer, length) pairs.

#endif
