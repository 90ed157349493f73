# berthier_install_configured(TEMPLATE OUTPUT DESTINATION COMPONENT): installs OUTPUT, made from
# TEMPLATE at install time with the directories of the prefix actually installed to
# (cmake/install_configure.cmake), so that `cmake --install build --prefix DIR` installs a
# pkg-config file and a systemd unit that name DIR and not the configured prefix.
function(berthier_install_configured template output destination component)
  set(dirs "")
  foreach(name BINDIR LIBDIR INCLUDEDIR DATADIR DOCDIR MANDIR)
    string(APPEND dirs "set(BRT_DIRS_${name} \"${CMAKE_INSTALL_${name}}\")\n")
  endforeach()
  install(CODE "${dirs}
set(PROJECT_VERSION \"${PROJECT_VERSION}\")
set(BRT_TEMPLATE \"${template}\")
set(BRT_OUTPUT \"${output}\")
include(\"${CMAKE_SOURCE_DIR}/cmake/install_configure.cmake\")" COMPONENT ${component})
  install(FILES ${output} DESTINATION ${destination} COMPONENT ${component})
endfunction()
