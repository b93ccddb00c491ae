; Tags for Ruby (tags convention: @name.definition.*, @definition.*, @name.reference.*, @import.*).
; A `def` is captured as a function: extract.ts makes it a method inside a class and leaves it a function at the top
; level or in a module (module functions, `def self.x` in a module).

(class name: (constant) @name.definition.class) @definition.class
(class name: (scope_resolution scope: (_) @container name: (constant) @name.definition.class)) @definition.class
(module name: (constant) @name.definition.module) @definition.module
(module name: (scope_resolution scope: (_) @container name: (constant) @name.definition.module)) @definition.module

(method name: (_) @name.definition.function) @definition.function
(singleton_method name: (_) @name.definition.function) @definition.function
(alias name: (_) @name.definition.function) @definition.function

(assignment left: (constant) @name.definition.constant) @definition.constant
; `attr_reader :name, :total` (and attr_writer, attr_accessor) defines the attributes: fields, named without the
; colon (extract.ts drops it).
(call method: (identifier) @_attr (#match? @_attr "^attr_(reader|writer|accessor)$")
  arguments: (argument_list (simple_symbol) @name.definition.field)) @definition.field

; References. `Foo.new` instantiates Foo; other calls on a constant use it as a type.
(call method: (identifier) @name.reference.call (#not-match? @name.reference.call "^(new|require|require_relative|load|include|extend|prepend|attr_reader|attr_writer|attr_accessor|private|protected|public)$"))
(call receiver: (constant) @name.reference.class method: (identifier) @_new (#eq? @_new "new"))
(call receiver: (scope_resolution name: (constant) @name.reference.class) method: (identifier) @_new (#eq? @_new "new"))
(call receiver: (constant) @name.reference.type method: (identifier) @_m (#not-eq? @_m "new"))
(scope_resolution scope: (constant) @name.reference.type)
(superclass (constant) @name.reference.class)
(superclass (scope_resolution name: (constant) @name.reference.class))
(superclass (call receiver: (constant) @name.reference.class))
(call method: (identifier) @_mixin (#match? @_mixin "^(include|extend|prepend)$")
  arguments: (argument_list [(constant) @name.reference.implementation (scope_resolution name: (constant) @name.reference.implementation)]))
(rescue (exceptions (constant) @name.reference.type))

; Imports: `require 'x'`, `require_relative 'x'` and `load 'x'` with a literal path.
(call method: (identifier) @_req (#match? @_req "^(require|require_relative|load|autoload)$")
  arguments: (argument_list (string (string_content) @import.source) .))
