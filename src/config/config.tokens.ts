/** Injection token of the loaded FlagpoleConfig (provided globally by ConfigModule.forRoot). */
export const CONFIG = Symbol('FLAGPOLE_CONFIG');
