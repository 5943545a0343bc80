// A stub of the parts of Apple's Security framework that `kcs export --swift`
// uses, so the generated tests can be type-checked on Linux. The test
// compiles this file as a module named `Security` and type-checks the
// exported files against it (ExportTests.swift). Types are simplified
// (CFString is String, CFTypeRef is Any); names and signatures are Apple's.
// SwiftPM also compiles it into the test target, which is harmless on Linux;
// on Apple platforms the real framework exists, so the stub is left out.

#if os(Linux)
import Foundation

public typealias OSStatus = Int32
public typealias CFTypeRef = Any
public typealias CFString = String
public typealias CFDictionary = [String: Any]
public typealias CFAllocator = NSObject
public typealias CFError = NSError

// Item classes.
public let kSecClass: CFString = "class"
public let kSecClassGenericPassword: CFString = "genp"
public let kSecClassInternetPassword: CFString = "inet"
public let kSecClassCertificate: CFString = "cert"
public let kSecClassKey: CFString = "keys"
public let kSecClassIdentity: CFString = "idnt"

// Attributes.
public let kSecAttrAccessGroup: CFString = "agrp"
public let kSecAttrAccessible: CFString = "pdmn"
public let kSecAttrAccessControl: CFString = "accc"
public let kSecAttrSynchronizable: CFString = "sync"
public let kSecAttrSynchronizableAny: CFString = "syna"
public let kSecAttrService: CFString = "svce"
public let kSecAttrAccount: CFString = "acct"
public let kSecAttrLabel: CFString = "labl"
public let kSecAttrGeneric: CFString = "gena"
public let kSecAttrComment: CFString = "icmt"
public let kSecAttrDescription: CFString = "desc"
public let kSecAttrCreator: CFString = "crtr"
public let kSecAttrType: CFString = "type"
public let kSecAttrServer: CFString = "srvr"
public let kSecAttrProtocol: CFString = "ptcl"
public let kSecAttrPort: CFString = "port"
public let kSecAttrPath: CFString = "path"
public let kSecAttrSecurityDomain: CFString = "sdmn"
public let kSecAttrAuthenticationType: CFString = "atyp"
public let kSecAttrCertificateType: CFString = "ctyp"
public let kSecAttrIssuer: CFString = "issr"
public let kSecAttrSerialNumber: CFString = "slnr"
public let kSecAttrPublicKeyHash: CFString = "pkhh"
public let kSecAttrKeyClass: CFString = "kcls"
public let kSecAttrApplicationLabel: CFString = "klbl"
public let kSecAttrApplicationTag: CFString = "atag"
public let kSecAttrKeyType: CFString = "type"
public let kSecAttrKeySizeInBits: CFString = "bsiz"
public let kSecAttrEffectiveKeySize: CFString = "esiz"
public let kSecAttrStartDate: CFString = "sdat"
public let kSecAttrEndDate: CFString = "edat"

// Accessibility.
public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"
public let kSecAttrAccessibleWhenUnlocked: CFString = "ak"
public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
public let kSecAttrAccessibleAfterFirstUnlock: CFString = "ck"
public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
public let kSecAttrAccessibleAlways: CFString = "dk"
public let kSecAttrAccessibleAlwaysThisDeviceOnly: CFString = "dku"

// Protocols.
public let kSecAttrProtocolFTP: CFString = "ftp "
public let kSecAttrProtocolFTPAccount: CFString = "ftpa"
public let kSecAttrProtocolHTTP: CFString = "http"
public let kSecAttrProtocolIRC: CFString = "irc "
public let kSecAttrProtocolNNTP: CFString = "nntp"
public let kSecAttrProtocolPOP3: CFString = "pop3"
public let kSecAttrProtocolSMTP: CFString = "smtp"
public let kSecAttrProtocolSOCKS: CFString = "sox "
public let kSecAttrProtocolIMAP: CFString = "imap"
public let kSecAttrProtocolLDAP: CFString = "ldap"
public let kSecAttrProtocolAppleTalk: CFString = "atlk"
public let kSecAttrProtocolAFP: CFString = "afp "
public let kSecAttrProtocolTelnet: CFString = "teln"
public let kSecAttrProtocolSSH: CFString = "ssh "
public let kSecAttrProtocolFTPS: CFString = "ftps"
public let kSecAttrProtocolHTTPS: CFString = "htps"
public let kSecAttrProtocolHTTPProxy: CFString = "htpx"
public let kSecAttrProtocolHTTPSProxy: CFString = "htsx"
public let kSecAttrProtocolFTPProxy: CFString = "ftpx"
public let kSecAttrProtocolSMB: CFString = "smb "
public let kSecAttrProtocolRTSP: CFString = "rtsp"
public let kSecAttrProtocolRTSPProxy: CFString = "rtsx"
public let kSecAttrProtocolDAAP: CFString = "daap"
public let kSecAttrProtocolEPPC: CFString = "eppc"
public let kSecAttrProtocolIPP: CFString = "ipp "
public let kSecAttrProtocolNNTPS: CFString = "ntps"
public let kSecAttrProtocolLDAPS: CFString = "ldps"
public let kSecAttrProtocolTelnetS: CFString = "tels"
public let kSecAttrProtocolIMAPS: CFString = "imps"
public let kSecAttrProtocolIRCS: CFString = "ircs"
public let kSecAttrProtocolPOP3S: CFString = "pops"

// Authentication types.
public let kSecAttrAuthenticationTypeNTLM: CFString = "ntlm"
public let kSecAttrAuthenticationTypeMSN: CFString = "msna"
public let kSecAttrAuthenticationTypeDPA: CFString = "dpaa"
public let kSecAttrAuthenticationTypeRPA: CFString = "rpaa"
public let kSecAttrAuthenticationTypeHTTPBasic: CFString = "http"
public let kSecAttrAuthenticationTypeHTTPDigest: CFString = "httd"
public let kSecAttrAuthenticationTypeHTMLForm: CFString = "form"
public let kSecAttrAuthenticationTypeDefault: CFString = "dflt"

// Keys.
public let kSecAttrKeyClassPublic: CFString = "0"
public let kSecAttrKeyClassPrivate: CFString = "1"
public let kSecAttrKeyClassSymmetric: CFString = "2"
public let kSecAttrKeyTypeRSA: CFString = "42"
public let kSecAttrKeyTypeEC: CFString = "73"
public let kSecAttrKeyTypeECSECPrimeRandom: CFString = "73"

// Values, search and return keys.
public let kSecValueData: CFString = "v_Data"
public let kSecMatchLimit: CFString = "m_Limit"
public let kSecMatchLimitOne: CFString = "m_LimitOne"
public let kSecMatchLimitAll: CFString = "m_LimitAll"
public let kSecReturnData: CFString = "r_Data"
public let kSecReturnAttributes: CFString = "r_Attributes"
public let kSecReturnRef: CFString = "r_Ref"
public let kSecReturnPersistentRef: CFString = "r_PersistentRef"
public let kSecUseDataProtectionKeychain: CFString = "nleg"
public let kSecUseAuthenticationUI: CFString = "u_AuthUI"
public let kSecUseAuthenticationUIAllow: CFString = "u_AuthUIA"
public let kSecUseAuthenticationUIFail: CFString = "u_AuthUIF"
public let kSecUseAuthenticationUISkip: CFString = "u_AuthUIS"

// Statuses (base/SecBase.h).
public let errSecSuccess: OSStatus = 0
public let errSecUnimplemented: OSStatus = -4
public let errSecParam: OSStatus = -50
public let errSecAllocate: OSStatus = -108
public let errSecUserCanceled: OSStatus = -128
public let errSecBadReq: OSStatus = -909
public let errSecInternalComponent: OSStatus = -2070
public let errSecMissingEntitlement: OSStatus = -34018
public let errSecRestrictedAPI: OSStatus = -34020
public let errSecDecode: OSStatus = -26275
public let errSecNoAccessForItem: OSStatus = -25243
public let errSecInvalidOwnerEdit: OSStatus = -25244
public let errSecNotAvailable: OSStatus = -25291
public let errSecAuthFailed: OSStatus = -25293
public let errSecDuplicateItem: OSStatus = -25299
public let errSecItemNotFound: OSStatus = -25300
public let errSecNoSuchAttr: OSStatus = -25303
public let errSecNoSuchClass: OSStatus = -25306
public let errSecInteractionNotAllowed: OSStatus = -25308
public let errSecReadOnlyAttr: OSStatus = -25309
public let errSecInteractionRequired: OSStatus = -25315

// Access control.
public final class SecAccessControl: Sendable {}

public struct SecAccessControlCreateFlags: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
    public static let biometryAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    public static let biometryCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    public static let devicePasscode = SecAccessControlCreateFlags(rawValue: 1 << 4)
    public static let or = SecAccessControlCreateFlags(rawValue: 1 << 14)
    public static let and = SecAccessControlCreateFlags(rawValue: 1 << 15)
    public static let applicationPassword = SecAccessControlCreateFlags(rawValue: 1 << 31)
}

public func SecAccessControlCreateWithFlags(_ allocator: CFAllocator?, _ protection: CFTypeRef,
                                            _ flags: SecAccessControlCreateFlags,
                                            _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecAccessControl? {
    SecAccessControl()
}

// The four calls. The stub only has to type-check: it finds nothing.
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    errSecUnimplemented
}

public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    errSecUnimplemented
}

public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    errSecUnimplemented
}

public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    errSecUnimplemented
}
#endif
