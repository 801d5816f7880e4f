// SPDX-License-Identifier: Apache-2.0
#ifndef TABSERVER_CCRYPTO_SHIM_H
#define TABSERVER_CCRYPTO_SHIM_H

#include <openssl/rand.h>
#include <openssl/hmac.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/err.h>

// OpenSSL spells these as variadic functions or macros, which Swift cannot import;
// each wrapper is the call, nothing more.

/// EVP_EC_gen("P-256") (a macro over the variadic EVP_PKEY_Q_keygen): a fresh P-256 key.
static inline EVP_PKEY *ccrypto_generate_p256(void) {
    return EVP_EC_gen("P-256");
}

/// EVP_CIPHER_CTX_ctrl(EVP_CTRL_GCM_GET_TAG): the 16-byte tag after a GCM encryption.
static inline int ccrypto_gcm_get_tag(EVP_CIPHER_CTX *context, unsigned char *tag) {
    return EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, tag);
}

/// EVP_CIPHER_CTX_ctrl(EVP_CTRL_GCM_SET_TAG): the tag a GCM decryption must find.
static inline int ccrypto_gcm_set_tag(EVP_CIPHER_CTX *context, unsigned char *tag) {
    return EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, 16, tag);
}

#endif
