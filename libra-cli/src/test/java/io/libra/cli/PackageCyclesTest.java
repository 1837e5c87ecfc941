package io.libra.cli;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * No package of Libra depends on itself through others, across all four modules. The adapters'
 * classes are not on this module's classpath, so their build output is read from the reactor
 * (this module's pom makes Maven build them first).
 */
class PackageCyclesTest {
    private static final List<String> MODULES = List.of("libra-core", "libra-cli", "libra-hbase", "libra-cassandra");

    @Test
    void noPackageCycleInAnyModule() {
        Path root = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();
        List<Path> dirs = MODULES.stream().map(m -> root.resolve(m).resolve("target/classes")).toList();
        assertThat(dirs).allMatch(Files::isDirectory, "built");
        JavaClasses classes = new ClassFileImporter().importPaths(dirs);
        assertThat(classes.stream().map(c -> c.getPackageName()).distinct().count()).isGreaterThan(20);
        slices().matching("io.libra.(**)").should().beFreeOfCycles().check(classes);
    }
}
