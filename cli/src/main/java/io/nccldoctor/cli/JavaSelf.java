package io.nccldoctor.cli;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command that starts this tool again in a child JVM: the same java, the same jar (or class path). */
final class JavaSelf {

    private JavaSelf() {
    }

    /** java -jar nccl-doctor.jar ARGS, or java -cp CLASSPATH Main ARGS when not run from the jar (tests). */
    static List<String> argv(List<String> args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> argv = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
        try {
            Path jar = Path.of(JavaSelf.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(jar)) {
                argv.addAll(List.of("-jar", jar.toString()));
                argv.addAll(args);
                return argv;
            }
        } catch (URISyntaxException | SecurityException e) {
            // not from a jar file: the class path below
        }
        argv.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        argv.addAll(args);
        return argv;
    }
}
