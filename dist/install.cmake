# install.cmake - where an installed histmac keeps its files (GNUInstallDirs,
# so a distribution's prefix and sysconfdir apply) and the files made for
# that layout: histmac.conf, the auditd plugin and rules, the systemd units,
# the man pages of the subcommands, bash completion.

set(HM_CONFIG_FILE "${CMAKE_INSTALL_FULL_SYSCONFDIR}/histmac/histmac.conf")
set(HM_STATE_DIR "${CMAKE_INSTALL_FULL_LOCALSTATEDIR}/lib/histmac")
set(HM_POLICY_DIR "${HM_STATE_DIR}/policy")
set(HM_BINDIR "${CMAKE_INSTALL_FULL_BINDIR}")
set(HM_SYSCONFDIR "${CMAKE_INSTALL_FULL_SYSCONFDIR}")
set(HM_SCHEMA_FILE "${CMAKE_INSTALL_FULL_DATADIR}/histmac/histmac.rng")
pkg_get_variable(HM_UNIT_DIR_DEFAULT systemd systemdsystemunitdir)
if(NOT HM_UNIT_DIR_DEFAULT)
	set(HM_UNIT_DIR_DEFAULT "${CMAKE_INSTALL_PREFIX}/lib/systemd/system")
endif()
set(HISTMAC_SYSTEMD_UNIT_DIR "${HM_UNIT_DIR_DEFAULT}" CACHE PATH
	"where the systemd units go")

function(hm_install_layout target)
	set(d ${CMAKE_SOURCE_DIR}/dist)
	set(b ${CMAKE_BINARY_DIR}/dist)
	target_compile_definitions(${target} PRIVATE
		HM_CONFIG_FILE="${HM_CONFIG_FILE}")
	foreach(f histmac.conf audit-plugin.conf histmac-learn.service
			histmac-enforce.service)
		configure_file(${d}/${f}.in ${b}/${f} @ONLY)
	endforeach()
	# the audit rules for the installed binary's path
	add_custom_command(OUTPUT ${b}/histmac.rules
		COMMAND ${target} rules --arch both --exe ${HM_BINDIR}/histmac
			> ${b}/histmac.rules
		DEPENDS ${target} VERBATIM)
	# one page per subcommand from its --help (events: man/)
	add_custom_command(OUTPUT ${b}/man/histmac-learn.1
		COMMAND sh ${CMAKE_SOURCE_DIR}/scripts/man-from-help.sh
			$<TARGET_FILE:${target}> ${b}/man events
		DEPENDS ${target} ${CMAKE_SOURCE_DIR}/scripts/man-from-help.sh
		VERBATIM)
	add_custom_target(${target}_dist ALL
		DEPENDS ${b}/histmac.rules ${b}/man/histmac-learn.1)

	install(TARGETS ${target} DESTINATION ${CMAKE_INSTALL_BINDIR})
	# the schema `histmac import --format xml` validates against
	install(FILES ${HM_SCHEMA_SOURCE}
		DESTINATION ${CMAKE_INSTALL_DATADIR}/histmac)
	file(GLOB man1 ${CMAKE_SOURCE_DIR}/man/*.1)
	install(FILES ${man1} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
	install(DIRECTORY ${b}/man/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
		FILES_MATCHING PATTERN "*.1")
	install(FILES ${CMAKE_SOURCE_DIR}/man/histmac.conf.5
		DESTINATION ${CMAKE_INSTALL_MANDIR}/man5)
	install(FILES ${b}/histmac.conf
		DESTINATION ${CMAKE_INSTALL_SYSCONFDIR}/histmac)
	install(FILES ${b}/audit-plugin.conf
		DESTINATION ${CMAKE_INSTALL_SYSCONFDIR}/audit/plugins.d
		RENAME histmac.conf)
	# a sample: augenrules loads only *.rules
	install(FILES ${b}/histmac.rules
		DESTINATION ${CMAKE_INSTALL_SYSCONFDIR}/audit/rules.d
		RENAME histmac.rules.sample)
	install(FILES ${b}/histmac-learn.service ${b}/histmac-enforce.service
		DESTINATION ${HISTMAC_SYSTEMD_UNIT_DIR})
	install(FILES ${d}/histmac.bash-completion
		DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
		RENAME histmac)
	install(DIRECTORY DESTINATION ${CMAKE_INSTALL_LOCALSTATEDIR}/lib/histmac)
endfunction()
