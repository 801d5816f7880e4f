// SPDX-License-Identifier: Apache-2.0
#ifndef TABSERVER_CCRYPTO_SHIM_H
#define TABSERVER_CCRYPTO_SHIM_H

#include <openssl/rand.h>
#include <openssl/hmac.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>

#endif
