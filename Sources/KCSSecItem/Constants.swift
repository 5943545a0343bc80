// Generated from the engine's constant names (KeychainEngine ItemAttribute,
// ItemClass, Accessibility, KeychainStatus); keep in step with them. Each
// constant's value is its own name: dictionaries passed to the SecItem
// functions are keyed by these names.

// MARK: Status codes (base/SecBase.h)

/// `errSecSuccess` (0).
public let errSecSuccess: OSStatus = 0
/// `errSecUnimplemented` (-4).
public let errSecUnimplemented: OSStatus = -4
/// `errSecParam` (-50).
public let errSecParam: OSStatus = -50
/// `errSecAllocate` (-108).
public let errSecAllocate: OSStatus = -108
/// `errSecUserCanceled` (-128).
public let errSecUserCanceled: OSStatus = -128
/// `errSecBadReq` (-909).
public let errSecBadReq: OSStatus = -909
/// `errSecInternalComponent` (-2070).
public let errSecInternalComponent: OSStatus = -2070
/// `errSecNoAccessForItem` (-25243).
public let errSecNoAccessForItem: OSStatus = -25243
/// `errSecInvalidOwnerEdit` (-25244).
public let errSecInvalidOwnerEdit: OSStatus = -25244
/// `errSecNotAvailable` (-25291).
public let errSecNotAvailable: OSStatus = -25291
/// `errSecAuthFailed` (-25293).
public let errSecAuthFailed: OSStatus = -25293
/// `errSecDuplicateItem` (-25299).
public let errSecDuplicateItem: OSStatus = -25299
/// `errSecItemNotFound` (-25300).
public let errSecItemNotFound: OSStatus = -25300
/// `errSecNoSuchAttr` (-25303).
public let errSecNoSuchAttr: OSStatus = -25303
/// `errSecNoSuchClass` (-25306).
public let errSecNoSuchClass: OSStatus = -25306
/// `errSecInteractionNotAllowed` (-25308).
public let errSecInteractionNotAllowed: OSStatus = -25308
/// `errSecReadOnlyAttr` (-25309).
public let errSecReadOnlyAttr: OSStatus = -25309
/// `errSecInteractionRequired` (-25315).
public let errSecInteractionRequired: OSStatus = -25315
/// `errSecDecode` (-26275).
public let errSecDecode: OSStatus = -26275
/// `errSecInternal` (-26276), declared in base/SecBasePriv.h, not the SDK.
public let errSecInternal: OSStatus = -26276
/// `errSecMissingEntitlement` (-34018).
public let errSecMissingEntitlement: OSStatus = -34018
/// `errSecRestrictedAPI` (-34020).
public let errSecRestrictedAPI: OSStatus = -34020

// MARK: Item classes (kSecClass values)

/// The item class key (`kSecClass`); its value is one of the `kSecClass…` constants.
public let kSecClass = "kSecClass"
/// A generic password (`kSecClassGenericPassword`).
public let kSecClassGenericPassword = "kSecClassGenericPassword"
/// An internet password (`kSecClassInternetPassword`).
public let kSecClassInternetPassword = "kSecClassInternetPassword"
/// A certificate (`kSecClassCertificate`).
public let kSecClassCertificate = "kSecClassCertificate"
/// A cryptographic key (`kSecClassKey`).
public let kSecClassKey = "kSecClassKey"
/// An identity: a certificate with its private key (`kSecClassIdentity`).
public let kSecClassIdentity = "kSecClassIdentity"

// MARK: Attributes the model stores

/// The service of a generic password (primary key).
public let kSecAttrService = "kSecAttrService"
/// The account of a password (primary key).
public let kSecAttrAccount = "kSecAttrAccount"
/// The `kSecAttrLabel` attribute.
public let kSecAttrLabel = "kSecAttrLabel"
/// The `kSecAttrGeneric` attribute.
public let kSecAttrGeneric = "kSecAttrGeneric"
/// The `kSecAttrComment` attribute.
public let kSecAttrComment = "kSecAttrComment"
/// The `kSecAttrDescription` attribute.
public let kSecAttrDescription = "kSecAttrDescription"
/// The `kSecAttrCreator` attribute.
public let kSecAttrCreator = "kSecAttrCreator"
/// The `kSecAttrType` attribute.
public let kSecAttrType = "kSecAttrType"
/// The `kSecAttrServer` attribute.
public let kSecAttrServer = "kSecAttrServer"
/// The `kSecAttrProtocol` attribute.
public let kSecAttrProtocol = "kSecAttrProtocol"
/// The `kSecAttrPort` attribute.
public let kSecAttrPort = "kSecAttrPort"
/// The `kSecAttrPath` attribute.
public let kSecAttrPath = "kSecAttrPath"
/// The `kSecAttrSecurityDomain` attribute.
public let kSecAttrSecurityDomain = "kSecAttrSecurityDomain"
/// The `kSecAttrAuthenticationType` attribute.
public let kSecAttrAuthenticationType = "kSecAttrAuthenticationType"
/// The `kSecAttrCertificateType` attribute.
public let kSecAttrCertificateType = "kSecAttrCertificateType"
/// The `kSecAttrIssuer` attribute.
public let kSecAttrIssuer = "kSecAttrIssuer"
/// The `kSecAttrSerialNumber` attribute.
public let kSecAttrSerialNumber = "kSecAttrSerialNumber"
/// The `kSecAttrPublicKeyHash` attribute.
public let kSecAttrPublicKeyHash = "kSecAttrPublicKeyHash"
/// The `kSecAttrKeyClass` attribute.
public let kSecAttrKeyClass = "kSecAttrKeyClass"
/// The `kSecAttrApplicationLabel` attribute.
public let kSecAttrApplicationLabel = "kSecAttrApplicationLabel"
/// The `kSecAttrApplicationTag` attribute.
public let kSecAttrApplicationTag = "kSecAttrApplicationTag"
/// The `kSecAttrKeyType` attribute.
public let kSecAttrKeyType = "kSecAttrKeyType"
/// The `kSecAttrKeySizeInBits` attribute.
public let kSecAttrKeySizeInBits = "kSecAttrKeySizeInBits"
/// The `kSecAttrEffectiveKeySize` attribute.
public let kSecAttrEffectiveKeySize = "kSecAttrEffectiveKeySize"
/// The `kSecAttrStartDate` attribute.
public let kSecAttrStartDate = "kSecAttrStartDate"
/// The `kSecAttrEndDate` attribute.
public let kSecAttrEndDate = "kSecAttrEndDate"
/// The access group an item belongs to (`kSecAttrAccessGroup`).
public let kSecAttrAccessGroup = "kSecAttrAccessGroup"
/// Whether an item travels through iCloud Keychain: `true`, `false` or ``kSecAttrSynchronizableAny``.
public let kSecAttrSynchronizable = "kSecAttrSynchronizable"
/// In a query, matches synchronizable and non-synchronizable items alike.
public let kSecAttrSynchronizableAny = "kSecAttrSynchronizableAny"
/// When an item's data is available (`kSecAttrAccessible`); its value is one of the `kSecAttrAccessible…` constants.
public let kSecAttrAccessible = "kSecAttrAccessible"
/// An access-control object (``SecAccessControl``) protecting the item.
public let kSecAttrAccessControl = "kSecAttrAccessControl"

// MARK: Accessibility values

/// The `whenPasscodeSetThisDeviceOnly` accessibility.
public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly = "kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly"
/// The `whenUnlocked` accessibility.
public let kSecAttrAccessibleWhenUnlocked = "kSecAttrAccessibleWhenUnlocked"
/// The `whenUnlockedThisDeviceOnly` accessibility.
public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly = "kSecAttrAccessibleWhenUnlockedThisDeviceOnly"
/// The `afterFirstUnlock` accessibility.
public let kSecAttrAccessibleAfterFirstUnlock = "kSecAttrAccessibleAfterFirstUnlock"
/// The `afterFirstUnlockThisDeviceOnly` accessibility.
public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly = "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly"
/// The `always` accessibility.
public let kSecAttrAccessibleAlways = "kSecAttrAccessibleAlways"
/// The `alwaysThisDeviceOnly` accessibility.
public let kSecAttrAccessibleAlwaysThisDeviceOnly = "kSecAttrAccessibleAlwaysThisDeviceOnly"

// MARK: Protocols (kSecAttrProtocol values)

/// `ftp`.
public let kSecAttrProtocolFTP = "kSecAttrProtocolFTP"
/// `ftp-account`.
public let kSecAttrProtocolFTPAccount = "kSecAttrProtocolFTPAccount"
/// `http`.
public let kSecAttrProtocolHTTP = "kSecAttrProtocolHTTP"
/// `irc`.
public let kSecAttrProtocolIRC = "kSecAttrProtocolIRC"
/// `nntp`.
public let kSecAttrProtocolNNTP = "kSecAttrProtocolNNTP"
/// `pop3`.
public let kSecAttrProtocolPOP3 = "kSecAttrProtocolPOP3"
/// `smtp`.
public let kSecAttrProtocolSMTP = "kSecAttrProtocolSMTP"
/// `socks`.
public let kSecAttrProtocolSOCKS = "kSecAttrProtocolSOCKS"
/// `imap`.
public let kSecAttrProtocolIMAP = "kSecAttrProtocolIMAP"
/// `ldap`.
public let kSecAttrProtocolLDAP = "kSecAttrProtocolLDAP"
/// `appletalk`.
public let kSecAttrProtocolAppleTalk = "kSecAttrProtocolAppleTalk"
/// `afp`.
public let kSecAttrProtocolAFP = "kSecAttrProtocolAFP"
/// `telnet`.
public let kSecAttrProtocolTelnet = "kSecAttrProtocolTelnet"
/// `ssh`.
public let kSecAttrProtocolSSH = "kSecAttrProtocolSSH"
/// `ftps`.
public let kSecAttrProtocolFTPS = "kSecAttrProtocolFTPS"
/// `https`.
public let kSecAttrProtocolHTTPS = "kSecAttrProtocolHTTPS"
/// `http-proxy`.
public let kSecAttrProtocolHTTPProxy = "kSecAttrProtocolHTTPProxy"
/// `https-proxy`.
public let kSecAttrProtocolHTTPSProxy = "kSecAttrProtocolHTTPSProxy"
/// `ftp-proxy`.
public let kSecAttrProtocolFTPProxy = "kSecAttrProtocolFTPProxy"
/// `smb`.
public let kSecAttrProtocolSMB = "kSecAttrProtocolSMB"
/// `rtsp`.
public let kSecAttrProtocolRTSP = "kSecAttrProtocolRTSP"
/// `rtsp-proxy`.
public let kSecAttrProtocolRTSPProxy = "kSecAttrProtocolRTSPProxy"
/// `daap`.
public let kSecAttrProtocolDAAP = "kSecAttrProtocolDAAP"
/// `eppc`.
public let kSecAttrProtocolEPPC = "kSecAttrProtocolEPPC"
/// `ipp`.
public let kSecAttrProtocolIPP = "kSecAttrProtocolIPP"
/// `nntps`.
public let kSecAttrProtocolNNTPS = "kSecAttrProtocolNNTPS"
/// `ldaps`.
public let kSecAttrProtocolLDAPS = "kSecAttrProtocolLDAPS"
/// `telnets`.
public let kSecAttrProtocolTelnetS = "kSecAttrProtocolTelnetS"
/// `imaps`.
public let kSecAttrProtocolIMAPS = "kSecAttrProtocolIMAPS"
/// `ircs`.
public let kSecAttrProtocolIRCS = "kSecAttrProtocolIRCS"
/// `pop3s`.
public let kSecAttrProtocolPOP3S = "kSecAttrProtocolPOP3S"

// MARK: Authentication types (kSecAttrAuthenticationType values)

/// `ntlm`.
public let kSecAttrAuthenticationTypeNTLM = "kSecAttrAuthenticationTypeNTLM"
/// `msn`.
public let kSecAttrAuthenticationTypeMSN = "kSecAttrAuthenticationTypeMSN"
/// `dpa`.
public let kSecAttrAuthenticationTypeDPA = "kSecAttrAuthenticationTypeDPA"
/// `rpa`.
public let kSecAttrAuthenticationTypeRPA = "kSecAttrAuthenticationTypeRPA"
/// `http-basic`.
public let kSecAttrAuthenticationTypeHTTPBasic = "kSecAttrAuthenticationTypeHTTPBasic"
/// `http-digest`.
public let kSecAttrAuthenticationTypeHTTPDigest = "kSecAttrAuthenticationTypeHTTPDigest"
/// `html-form`.
public let kSecAttrAuthenticationTypeHTMLForm = "kSecAttrAuthenticationTypeHTMLForm"
/// `default`.
public let kSecAttrAuthenticationTypeDefault = "kSecAttrAuthenticationTypeDefault"

// MARK: Key classes (kSecAttrKeyClass values)

/// `public`.
public let kSecAttrKeyClassPublic = "kSecAttrKeyClassPublic"
/// `private`.
public let kSecAttrKeyClassPrivate = "kSecAttrKeyClassPrivate"
/// `symmetric`.
public let kSecAttrKeyClassSymmetric = "kSecAttrKeyClassSymmetric"

// MARK: Key types (kSecAttrKeyType values)

/// `rsa`.
public let kSecAttrKeyTypeRSA = "kSecAttrKeyTypeRSA"
/// `ec`.
public let kSecAttrKeyTypeEC = "kSecAttrKeyTypeEC"
/// `ec-secp-random`.
public let kSecAttrKeyTypeECSECPrimeRandom = "kSecAttrKeyTypeECSECPrimeRandom"

// MARK: Values, returns, match and use keys

/// An item's secret data (`kSecValueData`): `Data` or `[UInt8]`. A `String` is
/// errSecParam, as on a device (securityd takes data only), except in an add
/// to the Mac's file-based keychain, which converts it to UTF-8.
public let kSecValueData = "kSecValueData"
/// A reference to the item (`kSecValueRef`); returned as ``SecItemReference``.
public let kSecValueRef = "kSecValueRef"
/// A persistent reference to the item (`kSecValuePersistentRef`); returned as `Data`.
public let kSecValuePersistentRef = "kSecValuePersistentRef"
/// Asks a find (or add) to return the item's data.
public let kSecReturnData = "kSecReturnData"
/// Asks a find (or add) to return the item's attributes as a dictionary.
public let kSecReturnAttributes = "kSecReturnAttributes"
/// Asks a find (or add) to return a reference to the item.
public let kSecReturnRef = "kSecReturnRef"
/// Asks a find (or add) to return a persistent reference to the item.
public let kSecReturnPersistentRef = "kSecReturnPersistentRef"
/// How many matches a find returns: ``kSecMatchLimitOne``, ``kSecMatchLimitAll`` or a number.
public let kSecMatchLimit = "kSecMatchLimit"
/// Return the first match only (the default).
public let kSecMatchLimitOne = "kSecMatchLimitOne"
/// Return every match, as an array.
public let kSecMatchLimitAll = "kSecMatchLimitAll"
/// macOS: `true` sends the call to the data-protection keychain.
public let kSecUseDataProtectionKeychain = "kSecUseDataProtectionKeychain"
/// What to do with items that need authentication: one of the `kSecUseAuthenticationUI…` values.
public let kSecUseAuthenticationUI = "kSecUseAuthenticationUI"
/// Prompt for authentication when an item needs it (the default).
public let kSecUseAuthenticationUIAllow = "kSecUseAuthenticationUIAllow"
/// Fail with `errSecInteractionNotAllowed` instead of prompting.
public let kSecUseAuthenticationUIFail = "kSecUseAuthenticationUIFail"
/// Skip items that would need a prompt.
public let kSecUseAuthenticationUISkip = "kSecUseAuthenticationUISkip"
/// Deprecated form of ``kSecUseAuthenticationUIFail``: `true` fails instead of prompting.
public let kSecUseNoAuthenticationUI = "kSecUseNoAuthenticationUI"
/// The text a prompt shows; accepted (a `String`) and otherwise ignored by the model.
public let kSecUseOperationPrompt = "kSecUseOperationPrompt"
