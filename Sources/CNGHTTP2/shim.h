// SPDX-License-Identifier: Apache-2.0
#ifndef TABSERVER_CNGHTTP2_SHIM_H
#define TABSERVER_CNGHTTP2_SHIM_H

#include <nghttp2/nghttp2.h>

#endif
