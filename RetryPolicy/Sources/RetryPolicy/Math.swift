// The C math library, for pow/tanh/sqrt; the policy library needs nothing else from the platform.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#elseif canImport(ucrt)
@_exported import ucrt
#endif
