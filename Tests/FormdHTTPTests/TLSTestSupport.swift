import COpenSSL
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import FormdHTTP

func makeTLSServer(_ tls: TLSConfiguration, _ tweak: (inout HTTPServerConfiguration) -> Void = { _ in }) throws
    -> (HTTPServer, Int)
{
    try makeServer { c in
        c.tls = tls
        tweak(&c)
    }
}
