import Foundation

/// The build settings Xcode defines itself, beside those a project sets:
/// the one table of them. Those whose value kcs can know are the lowest
/// level of every target's settings; those it cannot (a folder of the
/// build) are said as such, not as settings to define (`$(PROJECT)` was
/// "undefined", and the hint had the developer shadow Xcode's own;
/// real-project trial 17, D2).
public enum BuiltinSettings {
    /// What a value is worked out from.
    public struct Context: Sendable {
        public var projectName: String
        public var projectPath: String
        public var sourceRoot: String
        public var targetName: String
        public var productType: String
        public var configuration: String
        public var sdk: String
    }

    /// The settings kcs knows the value of, lowest level first: a project
    /// that sets one overrides it, as in Xcode.
    public static func values(_ c: Context) -> [(name: String, value: String)] {
        var out: [(name: String, value: String)] = [
            ("TARGET_NAME", c.targetName),
            ("TARGETNAME", c.targetName),
            ("PROJECT_NAME", c.projectName),
            ("PROJECT", c.projectName),
            ("CONFIGURATION", c.configuration),
            ("SRCROOT", c.sourceRoot),
            ("PROJECT_DIR", c.sourceRoot),
            ("SOURCE_ROOT", c.sourceRoot),
            ("PROJECT_FILE_PATH", c.projectPath),
        ]
        // Xcode takes these from the environment of the user who builds
        // (`xcodebuild -showBuildSettings` lists them): Brave's Debug bundle
        // ID is brave.$(USER).local.id, one app per developer.
        let environment = ProcessInfo.processInfo.environment
        out.append(("USER", environment["USER"] ?? environment["LOGNAME"] ?? "user"))
        out.append(("HOME", environment["HOME"] ?? "/"))
        out.append(("PLATFORM_NAME", c.sdk))
        out.append(("EFFECTIVE_PLATFORM_NAME", c.sdk == "macosx" ? "" : "-" + c.sdk))
        out.append(("PRODUCT_NAME", "$(TARGET_NAME)"))
        out.append(("PRODUCT_MODULE_NAME", "$(PRODUCT_NAME:c99extidentifier)"))
        // A bundle's names, for the product types whose wrapper is known:
        // the executable is the product's name (no prefix or suffix).
        if let wrapper = wrapperExtensions[c.productType] {
            out.append(("WRAPPER_EXTENSION", wrapper))
            out.append(("WRAPPER_NAME", "$(PRODUCT_NAME).$(WRAPPER_EXTENSION)"))
            out.append(("FULL_PRODUCT_NAME", "$(WRAPPER_NAME)"))
            out.append(("EXECUTABLE_NAME", "$(PRODUCT_NAME)"))
        } else if c.productType == "com.apple.product-type.tool" {
            out.append(("FULL_PRODUCT_NAME", "$(PRODUCT_NAME)"))
            out.append(("EXECUTABLE_NAME", "$(PRODUCT_NAME)"))
        }
        return out
    }

    /// The bundle extension of each product type kcs knows it for.
    static let wrapperExtensions: [String: String] = [
        "com.apple.product-type.application": "app",
        "com.apple.product-type.application.messages": "app",
        "com.apple.product-type.application.on-demand-install-capable": "app",
        "com.apple.product-type.application.watchapp2": "app",
        "com.apple.product-type.application.watchapp2-container": "app",
        "com.apple.product-type.app-extension": "appex",
        "com.apple.product-type.app-extension.messages": "appex",
        "com.apple.product-type.app-extension.messages-sticker-pack": "appex",
        "com.apple.product-type.extensionkit-extension": "appex",
        "com.apple.product-type.tv-app-extension": "appex",
        "com.apple.product-type.watchkit2-extension": "appex",
        "com.apple.product-type.framework": "framework",
        "com.apple.product-type.bundle": "bundle",
        "com.apple.product-type.bundle.unit-test": "xctest",
        "com.apple.product-type.bundle.ui-testing": "xctest",
        "com.apple.product-type.xpc-service": "xpc",
        "com.apple.product-type.system-extension": "systemextension",
    ]

    /// Settings Xcode defines that kcs cannot know the value of, with what
    /// they are: the folders of a build, and the names of a product whose
    /// type kcs does not know the wrapper of.
    static let unknowable: [String: String] = {
        var out: [String: String] = [:]
        for name in ["BUILD_DIR", "BUILD_ROOT", "BUILT_PRODUCTS_DIR", "CONFIGURATION_BUILD_DIR", "CONFIGURATION_TEMP_DIR",
                     "DERIVED_FILE_DIR", "DERIVED_FILES_DIR", "DERIVED_SOURCES_DIR", "DSTROOT", "INSTALL_DIR", "OBJROOT",
                     "OBJECT_FILE_DIR", "PROJECT_TEMP_DIR", "SHARED_DERIVED_FILE_DIR", "SYMROOT", "TARGET_BUILD_DIR",
                     "TARGET_TEMP_DIR", "TEMP_DIR", "TEMP_FILES_DIR", "TEMP_ROOT", "CONTENTS_FOLDER_PATH",
                     "UNLOCALIZED_RESOURCES_FOLDER_PATH", "EXECUTABLE_FOLDER_PATH"] {
            out[name] = "a folder of the build"
        }
        for name in ["DEVELOPER_DIR", "PLATFORM_DIR", "SDK_DIR", "TOOLCHAIN_DIR"] { out[name] = "a folder of the Xcode that builds" }
        for name in ["EXECUTABLE_NAME", "FULL_PRODUCT_NAME", "WRAPPER_NAME", "WRAPPER_EXTENSION", "EXECUTABLE_PATH"] {
            out[name] = "a name of the product, which depends on its type"
        }
        return out
    }()

    /// What a setting Xcode defines but kcs cannot know is, or nil.
    public static func unknowable(_ name: String) -> String? { unknowable[name] }
}
