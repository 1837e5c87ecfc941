package io.libra.cli;

import picocli.CommandLine;

/** The version from the jar manifest (set by the build), or "dev" when run from classes. */
final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = LibraCli.class.getPackage().getImplementationVersion();
        return new String[] {"libra " + (v == null ? "dev" : v),
                "formats: libra.snapshot/v1, libra.plan/v1", "Java " + System.getProperty("java.version")};
    }
}
