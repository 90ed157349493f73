# tests/unit/test_wem_geom.c (registered with every unit test by tests/CMakeLists.txt) checks
# the sine table against the C library's sine: the test, not the rules code, links libm.
if(TARGET test_wem_geom)
  target_link_libraries(test_wem_geom PRIVATE m)
endif()
