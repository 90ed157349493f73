# Run at install time (install(CODE), see berthier_install_configured() in cmake/Install.cmake):
# fills a template with the directories of the prefix being installed to, which is the one
# given to `cmake --install --prefix DIR` when there is one, not necessarily the configured one.
#   BRT_TEMPLATE, BRT_OUTPUT   the template and the file to write (in the build tree)
#   BRT_DIRS_<NAME>            each GNUInstallDirs directory as configured (relative or absolute)
# In the template: @BRT_PREFIX@ and @BRT_<NAME>@ (absolute), @BRT_PC_<NAME>@ (for pkg-config:
# ${prefix}/<dir> when the directory is under the prefix), @PROJECT_VERSION@.
set(BRT_PREFIX "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "(.)/+$" "\\1" BRT_PREFIX "${BRT_PREFIX}")
foreach(name BINDIR LIBDIR INCLUDEDIR DATADIR DOCDIR MANDIR)
  set(rel "${BRT_DIRS_${name}}")
  if(IS_ABSOLUTE "${rel}")
    set(BRT_${name} "${rel}")
    set(BRT_PC_${name} "${rel}")
  else()
    set(BRT_${name} "${BRT_PREFIX}/${rel}")
    set(BRT_PC_${name} "\${prefix}/${rel}")
  endif()
endforeach()
configure_file("${BRT_TEMPLATE}" "${BRT_OUTPUT}" @ONLY)
