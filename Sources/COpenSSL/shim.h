#ifndef FORMD_COPENSSL_SHIM_H
#define FORMD_COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/pem.h>

// Many OpenSSL "functions" are macros over SSL_CTX_ctrl/SSL_ctrl (and 3.0's SSL_OP_* are
// function-like macros), which Swift cannot import; these wrappers give them a callable form.
static inline long formd_ctx_set_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_mode(ctx, mode); }
static inline int formd_ctx_set_protocols(SSL_CTX *ctx, int min, int max) {
    return SSL_CTX_set_min_proto_version(ctx, min) == 1 && SSL_CTX_set_max_proto_version(ctx, max) == 1;
}
static inline int formd_ctx_set_groups(SSL_CTX *ctx, const char *list) { return (int)SSL_CTX_set1_groups_list(ctx, list); }
static inline void formd_ctx_set_session_cache(SSL_CTX *ctx, long size) {
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_SERVER);
    SSL_CTX_sess_set_cache_size(ctx, size);
}
static inline void formd_ctx_set_read_ahead(SSL_CTX *ctx, int yes) { SSL_CTX_set_read_ahead(ctx, yes); }
static inline long formd_ctx_sess_hits(SSL_CTX *ctx) { return SSL_CTX_sess_hits(ctx); }

/// No compression (CRIME), no renegotiation (client-initiated renegotiation DoS), and an EOF
/// without close_notify reads as a clean EOF (HTTP framing detects truncation itself).
static inline void formd_ctx_set_server_options(SSL_CTX *ctx) {
    SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION | SSL_OP_IGNORE_UNEXPECTED_EOF);
}

/// A key protected by a passphrase must fail to load instead of prompting on the terminal.
static int formd_no_password_cb(char *buf, int size, int rwflag, void *u) { (void)buf; (void)size; (void)rwflag; (void)u; return 0; }
static inline void formd_ctx_disable_password_prompt(SSL_CTX *ctx) { SSL_CTX_set_default_passwd_cb(ctx, formd_no_password_cb); }

/// ALPN: select "http/1.1"; a client that offers only other protocols gets a fatal
/// no_application_protocol alert (RFC 7301 3.2).
static const unsigned char formd_alpn_http11[] = { 8, 'h', 't', 't', 'p', '/', '1', '.', '1' };
static int formd_alpn_select_cb(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                                const unsigned char *in, unsigned int inlen, void *arg) {
    (void)ssl; (void)arg;
    unsigned char *sel = NULL;
    if (SSL_select_next_proto(&sel, outlen, formd_alpn_http11, sizeof formd_alpn_http11, in, inlen)
        != OPENSSL_NPN_NEGOTIATED) {
        return SSL_TLSEXT_ERR_ALERT_FATAL;
    }
    *out = sel;
    return SSL_TLSEXT_ERR_OK;
}
static inline void formd_ctx_set_alpn_http11(SSL_CTX *ctx) { SSL_CTX_set_alpn_select_cb(ctx, formd_alpn_select_cb, NULL); }

// Client side (tests).
static inline long formd_set_sni(SSL *ssl, const char *name) { return SSL_set_tlsext_host_name(ssl, name); }
static inline int formd_session_reused(SSL *ssl) { return (int)SSL_session_reused(ssl); }
static inline int formd_set_alpn_http11(SSL *ssl) { return SSL_set_alpn_protos(ssl, formd_alpn_http11, sizeof formd_alpn_http11); }
#endif
