#pragma once
// SHA-256 (FIPS 180-4) of a byte string, as 64 lowercase hex digits: the fingerprint a sweep's
// manifest keeps of the files its results came from.

#include <string>

namespace mt {

/// The SHA-256 digest of `bytes` in hex ("e3b0c442...b855" for the empty string).
std::string sha256_hex(const std::string& bytes);

}  // namespace mt
